// Layering fixture: the window's palette.
