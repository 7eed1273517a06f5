-- 010 (PostgreSQL): how each member's rounds ended, as ../010_round_results.sql.

CREATE TABLE round_results (
    id        BIGSERIAL PRIMARY KEY,
    ts        TEXT    NOT NULL,
    guild_id  BIGINT  NOT NULL,
    table_id  TEXT    NOT NULL REFERENCES game_tables (id),
    account   TEXT    NOT NULL,
    net       BIGINT  NOT NULL
);
CREATE INDEX round_results_account ON round_results (account);
