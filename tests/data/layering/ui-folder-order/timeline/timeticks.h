// Layering fixture: the timeline's time ticks.
