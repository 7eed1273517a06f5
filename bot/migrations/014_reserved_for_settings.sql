-- 014: reserved. The owners' settings branch (issue 38, parts 1-4, 8) brings its own
-- 014 (the settings trail of /casino log); this file only keeps the numbering without
-- a gap until that migration is merged, and goes when it comes. It changes nothing.

CREATE TABLE IF NOT EXISTS schema_reserved_014 (id INTEGER PRIMARY KEY);
DROP TABLE schema_reserved_014;
