"""One router per resource: live (pushes), session (set-up and control), games (the archive),
calibration, camera (the phone), pages (the HTML) and meta (health, games on offer)."""
