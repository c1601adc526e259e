-- Reserved for the rules version of each game; replaced by that migration when it lands.
SELECT 1;
