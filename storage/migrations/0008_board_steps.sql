-- Leaderboards at scale: how many players stand at each step of a board, so that a page or a player's rank is
-- found by adding up steps instead of walking the board; the kokeshi a player chose, one row per player.

-- Per scope and board (rating, wins, best, solo), players counted at two depths of the board's order:
-- fine = 0 rows count a coarse step `a` (b = 0); fine = 1 rows count each fine step `b` inside it.
--   wins:      a = wins, b = games                          (both descending)
--   best/solo: a = best score, b = UTC day of first_at      (a descending, b ascending)
--   rating:    a = floor(mu - 3 sigma), b = floor(64 (mu - 3 sigma))   (both descending)
-- Kept in the transaction of each finished game, with the totals and ratings they count.
CREATE TABLE board_steps (
    scope   TEXT    NOT NULL,
    board   TEXT    NOT NULL CHECK (board IN ('rating', 'wins', 'best', 'solo')),
    fine    INTEGER NOT NULL,
    a       INTEGER NOT NULL,
    b       INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (scope, board, fine, a, b)
) WITHOUT ROWID;

INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'wins', 0, wins, 0, COUNT(*) FROM player_totals WHERE solo = 0 GROUP BY scope, wins;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'wins', 1, wins, games, COUNT(*) FROM player_totals WHERE solo = 0 GROUP BY scope, wins, games;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'best' END, 0, best, 0, COUNT(*)
FROM player_totals GROUP BY scope, solo, best;
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, CASE solo WHEN 1 THEN 'solo' ELSE 'best' END, 1, best, CAST(first_at AS INTEGER) / 86400, COUNT(*)
FROM player_totals GROUP BY scope, solo, best, CAST(first_at AS INTEGER) / 86400;
-- floor(x) is CAST(x AS INTEGER) (toward zero) less one for negative x with a fraction.
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'rating', 0, d - (mu - 3 * sigma < d), 0, COUNT(*)
FROM (SELECT scope, mu, sigma, CAST(mu - 3 * sigma AS INTEGER) AS d FROM ratings)
GROUP BY scope, d - (mu - 3 * sigma < d);
INSERT INTO board_steps (scope, board, fine, a, b, players)
SELECT scope, 'rating', 1, d - (mu - 3 * sigma < d), e - ((mu - 3 * sigma) * 64 < e), COUNT(*)
FROM (SELECT scope, mu, sigma, CAST(mu - 3 * sigma AS INTEGER) AS d, CAST((mu - 3 * sigma) * 64 AS INTEGER) AS e
      FROM ratings)
GROUP BY scope, d - (mu - 3 * sigma < d), e - ((mu - 3 * sigma) * 64 < e);

-- The board pages read ratings by (mu - 3 sigma) only; the order of mu and sigma was never read. A page now reads
-- a few rows of one step, so the display index need not carry every column either.
DROP INDEX ratings_by_scope;
DROP INDEX ratings_by_display;
CREATE INDEX ratings_by_display ON ratings (scope, (mu - 3 * sigma) DESC, user_id);

-- How often each player chose to advance each kokeshi: one row per player and scope, not one per kokeshi.
CREATE TABLE kokeshi_choices (
    scope     TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    princess  INTEGER NOT NULL DEFAULT 0,
    batchan   INTEGER NOT NULL DEFAULT 0,
    fisherman INTEGER NOT NULL DEFAULT 0,
    samurai   INTEGER NOT NULL DEFAULT 0,
    sumotori  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, user_id)
) WITHOUT ROWID;
INSERT INTO kokeshi_choices (scope, user_id, princess, batchan, fisherman, samurai, sumotori)
SELECT scope, user_id,
       SUM(CASE kokeshi WHEN 'princess' THEN n ELSE 0 END), SUM(CASE kokeshi WHEN 'batchan' THEN n ELSE 0 END),
       SUM(CASE kokeshi WHEN 'fisherman' THEN n ELSE 0 END), SUM(CASE kokeshi WHEN 'samurai' THEN n ELSE 0 END),
       SUM(CASE kokeshi WHEN 'sumotori' THEN n ELSE 0 END)
FROM kokeshi_counts GROUP BY scope, user_id;
DROP TABLE kokeshi_counts;
