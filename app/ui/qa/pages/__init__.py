"""Page objects: each tab and dialog as a scenario drives it (app/ui/qa/pages/<page>.py)."""
