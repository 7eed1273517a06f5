-- 014: reserved for the server settings' own migration (the settings trail of
-- /casino log); this file only keeps the numbering without a gap until that migration
-- comes, and goes then. It changes nothing.

CREATE TABLE IF NOT EXISTS schema_reserved_014 (id INTEGER PRIMARY KEY);
DROP TABLE schema_reserved_014;
