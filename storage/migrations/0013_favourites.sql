-- Favourites that know no game: how often each player's own decisions counted towards each item of a game's
-- favourite (`GameModule.favourite_of`: Kokeshi's kokeshi advanced, Kōhaku's goal card kept), one row per item,
-- instead of one column per kokeshi. The scope leads with the game's key, as the boards' do.
CREATE TABLE favourites (
    scope   TEXT    NOT NULL,
    user_id INTEGER NOT NULL,
    item    TEXT    NOT NULL,
    times   INTEGER NOT NULL,
    PRIMARY KEY (scope, user_id, item)
) WITHOUT ROWID;

-- Every kokeshi a player chose at least once, from its column.
INSERT INTO favourites (scope, user_id, item, times)
SELECT scope, user_id, 'princess', princess FROM kokeshi_choices WHERE princess > 0
UNION ALL SELECT scope, user_id, 'batchan', batchan FROM kokeshi_choices WHERE batchan > 0
UNION ALL SELECT scope, user_id, 'fisherman', fisherman FROM kokeshi_choices WHERE fisherman > 0
UNION ALL SELECT scope, user_id, 'samurai', samurai FROM kokeshi_choices WHERE samurai > 0
UNION ALL SELECT scope, user_id, 'sumotori', sumotori FROM kokeshi_choices WHERE sumotori > 0;
DROP TABLE kokeshi_choices;
