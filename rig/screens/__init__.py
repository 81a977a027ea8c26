"""The table's screens: what each prompt says (views), the 21x8 screen model with its
paging (screen), and drawing it (render)."""
