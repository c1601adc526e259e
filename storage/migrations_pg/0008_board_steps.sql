-- PostgreSQL's own version of SQLite's 0008_board_steps.sql (see there): floor() in its own words, and 32-bit
-- counters where SQLite's translation would give 64-bit ones.

CREATE TABLE board_steps (
    scope   TEXT    NOT NULL,
    board   TEXT    NOT NULL CHECK (board IN ('rating', 'wins', 'best', 'solo')),
    fine    INTEGER NOT NULL,
    a       INTEGER NOT NULL,
    b       INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (scope, board, fine, a, b)
);

INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'wins', 0, wins, 0, COUNT(*) FROM player_totals WHERE solo = 0 GROUP BY scope, wins;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'wins', 1, wins, games, COUNT(*) FROM player_totals WHERE solo = 0 GROUP BY scope, wins, games;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'best' END, 0, best, 0, COUNT(*)
FROM player_totals GROUP BY scope, solo, best;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'best' END, 1, best, CAST(floor(first_at) AS BIGINT) / 86400, COUNT(*)
FROM player_totals GROUP BY scope, solo, best, CAST(floor(first_at) AS BIGINT) / 86400;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'rating', 0, floor(mu - 3 * sigma), 0, COUNT(*) FROM ratings GROUP BY scope, floor(mu - 3 * sigma);
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'rating', 1, floor(mu - 3 * sigma), floor((mu - 3 * sigma) * 64), COUNT(*)
FROM ratings GROUP BY scope, floor(mu - 3 * sigma), floor((mu - 3 * sigma) * 64);

DROP INDEX ratings_by_scope;
DROP INDEX ratings_by_display;
CREATE INDEX ratings_by_display ON ratings (scope, (mu - 3 * sigma) DESC, user_id);

CREATE TABLE kokeshi_choices (
    scope     TEXT    NOT NULL,
    user_id   BIGINT  NOT NULL,
    princess  INTEGER NOT NULL DEFAULT 0,
    batchan   INTEGER NOT NULL DEFAULT 0,
    fisherman INTEGER NOT NULL DEFAULT 0,
    samurai   INTEGER NOT NULL DEFAULT 0,
    sumotori  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, user_id)
);
INSERT INTO kokeshi_choices (scope, user_id, princess, batchan, fisherman, samurai, sumotori)
SELECT scope, user_id,
       SUM(CASE kokeshi WHEN 'princess' THEN n ELSE 0 END), SUM(CASE kokeshi WHEN 'batchan' THEN n ELSE 0 END),
       SUM(CASE kokeshi WHEN 'fisherman' THEN n ELSE 0 END), SUM(CASE kokeshi WHEN 'samurai' THEN n ELSE 0 END),
       SUM(CASE kokeshi WHEN 'sumotori' THEN n ELSE 0 END)
FROM kokeshi_counts GROUP BY scope, user_id;
DROP TABLE kokeshi_counts;
