-- Game-keyed storage: which game each row belongs to, so that one database holds several games.
--   games:   the game's key (every game stored so far is Kokeshi) and its lobby settings as a JSON object;
--   seats:   the AI level of a seat, until now kept among the installation's facts (`meta`, ai_level:<game>:<seat>);
--   results: a seat's score item by item as a JSON object, instead of one column per Kokeshi score item;
--   ratings, leaderboard totals and steps, and choice counts: their scope leads with the game's key
--            ('kokeshi:global', 'kokeshi:guild:<id>'), so that two games' boards never mix;
--   challenge attempts: the game's key, by which challenge boards and streaks are read.

ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'kokeshi';
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

ALTER TABLE seats ADD COLUMN ai_level TEXT;  -- NULL: a person's seat, or an AI seat at the default level
UPDATE seats SET ai_level =
    (SELECT m.value FROM meta m WHERE m.key = 'ai_level:' || seats.game_id || ':' || seats.seat)
WHERE seats.ai = 1;
DELETE FROM meta WHERE key LIKE 'ai_level:%';

ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
UPDATE results SET details = json_object(
    'in_play', in_play, 'tracks', tracks, 'quality', quality, 'animals', animals, 'leads', leads,
    'adjacency', adjacency);
ALTER TABLE results DROP COLUMN in_play;
ALTER TABLE results DROP COLUMN tracks;
ALTER TABLE results DROP COLUMN quality;
ALTER TABLE results DROP COLUMN animals;
ALTER TABLE results DROP COLUMN leads;
ALTER TABLE results DROP COLUMN adjacency;

UPDATE ratings SET scope = 'kokeshi:' || scope;
UPDATE rating_changes SET scope = 'kokeshi:' || scope;
UPDATE player_totals SET scope = 'kokeshi:' || scope;
UPDATE board_counts SET scope = 'kokeshi:' || scope;
UPDATE board_steps SET scope = 'kokeshi:' || scope;
UPDATE kokeshi_choices SET scope = 'kokeshi:' || scope;

ALTER TABLE challenge_attempts ADD COLUMN game TEXT NOT NULL DEFAULT 'kokeshi';
DROP INDEX attempts_by_key;
DROP INDEX attempts_by_user;
DROP INDEX attempts_by_guild;
CREATE INDEX attempts_by_key ON challenge_attempts (game, kind, key, rated, score);
CREATE INDEX attempts_by_user ON challenge_attempts (user_id, game, kind, key);
CREATE INDEX attempts_by_guild ON challenge_attempts (game, kind, key, guild_id, rated, score);
