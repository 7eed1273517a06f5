-- 016: the round whose result post went out, per table.
--
-- A round's end is saved with the table (its snapshot notes the round whose result is
-- due); the result is posted a moment later. The bot writes here the round whose post
-- went out, without touching the table's version (its message is not drawn again). After
-- a restart a table whose snapshot says a result is due that this does not say went out
-- gets it posted then, from the round's log saved with it: a restart in between loses
-- nothing.

ALTER TABLE game_tables ADD COLUMN result_shown INTEGER;
