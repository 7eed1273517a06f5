-- 007 (PostgreSQL): as ../007_punto_banco_name.sql.
UPDATE game_tables SET game = 'punto_banco' WHERE game = 'baccarat';
