-- Rate limits across nodes (issue 19, decision 0072): each node writes its own request count per
-- key and window about once a second and reads the others' sums. UNLOGGED: counts of a window
-- are worthless after a crash, and the table is rewritten every second.
CREATE UNLOGGED TABLE rate_windows (
    scope        text NOT NULL,   -- 'rest' or 'mcp': separate quotas
    key          text NOT NULL,   -- the principal
    window_start bigint NOT NULL, -- epoch seconds
    node         text NOT NULL,
    used         integer NOT NULL,
    PRIMARY KEY (scope, window_start, key, node)
);
