-- A server's daily results are posted once per game and day (each game with a daily challenge has its own post), so
-- the record of what was posted is keyed by the game too; every post made so far was Kokeshi's.
CREATE TABLE daily_game_posts (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    day        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, day)
);
INSERT INTO daily_game_posts (guild_id, game, day, channel_id, posted_at)
SELECT guild_id, 'kokeshi', day, channel_id, posted_at FROM daily_posts;
DROP TABLE daily_posts;
ALTER TABLE daily_game_posts RENAME TO daily_posts;
