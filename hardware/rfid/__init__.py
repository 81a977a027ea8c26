"""Card readers: serial frame decoders (RDM6300, PN532), presence tracking, a reader
thread over pyserial and a mock reader. pyserial is imported only when a port opens."""
