// Layering fixture: a public header of the launcher.
