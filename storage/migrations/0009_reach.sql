-- Whether Discord lets the bot post in a game's thread. A run of refusals (a permission taken away, a locked or
-- deleted thread, the bot removed from the server) is kept with the game: when it began, how many posts were
-- refused and the last refusal (HTTP status and Discord's JSON code), and, after a day of it, when the game was
-- marked unreachable and when its host was told. All NULL (and 0) while posts go through.

ALTER TABLE turn_posts ADD COLUMN refused_since  REAL;
ALTER TABLE turn_posts ADD COLUMN refusals       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE turn_posts ADD COLUMN refusal_status INTEGER;
ALTER TABLE turn_posts ADD COLUMN refusal_code   INTEGER;
ALTER TABLE turn_posts ADD COLUMN unreachable_at REAL;
ALTER TABLE turn_posts ADD COLUMN told_at        REAL;
