-- PostgreSQL's own version of SQLite's migration of the same name (see there): json_build_object for json_object.

ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'kokeshi';
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

ALTER TABLE seats ADD COLUMN ai_level TEXT;  -- NULL: a person's seat, or an AI seat at the default level
UPDATE seats SET ai_level =
    (SELECT m.value FROM meta m WHERE m.key = 'ai_level:' || seats.game_id || ':' || seats.seat)
WHERE seats.ai = 1;
DELETE FROM meta WHERE key LIKE 'ai_level:%';

ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
UPDATE results SET details = json_build_object(
    'in_play', in_play, 'tracks', tracks, 'quality', quality, 'animals', animals, 'leads', leads,
    'adjacency', adjacency)::text;
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
