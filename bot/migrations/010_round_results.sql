-- 010: how each member's rounds ended, for /stats ("rounds won, lost or pushed per game").
--
-- The ledger records chips, not rounds: a Pontoon round's stake, buys and payouts are
-- written over several clicks, so a round's result cannot be read back from it. One row
-- is written per member (an account that played) each time a round or coup is settled,
-- in the same transaction as the table's new snapshot and the chip moves that settled
-- it. ``net`` is the member's chips from that round: > 0 won, < 0 lost, 0 pushed.

CREATE TABLE round_results (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    ts        TEXT    NOT NULL,
    guild_id  INTEGER NOT NULL,
    table_id  TEXT    NOT NULL REFERENCES game_tables (id),
    account   TEXT    NOT NULL,
    net       INTEGER NOT NULL CHECK (typeof(net) = 'integer')
);
CREATE INDEX round_results_account ON round_results (account);
