"""Updates that roll back, on the Pi image (docs/IMAGE.md, "Updates that roll back").

``rig.update.notice`` is all ``cbrig run`` imports from here (what to tell the table);
the machinery itself (``rig.update.versions``) loads only for ``cbrig update``."""
