"""The maker's kit: board art, the printed sheets and the printable case."""
