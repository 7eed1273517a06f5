-- 014 (PostgreSQL): reserved, as ../014_reserved_for_settings.sql. It changes nothing.

CREATE TABLE IF NOT EXISTS schema_reserved_014 (id INTEGER PRIMARY KEY);
DROP TABLE schema_reserved_014;
