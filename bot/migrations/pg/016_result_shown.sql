-- 016 (PostgreSQL): the round whose result post went out, per table, as
-- ../016_result_shown.sql.

ALTER TABLE game_tables ADD COLUMN result_shown BIGINT;
