-- Feature plugins' storage (decision 0067): which plugin has which schema and login role, and
-- the one door from a plugin's transaction into the event log.

-- Written and read by the host's connection only; plugin roles have no privilege on it. The
-- password is the plugin role's login, generated once by the first node that provisions the
-- plugin, so every node sharing this database logs the plugin in the same way.
CREATE TABLE plugin_storage (
    plugin      text PRIMARY KEY,
    schema_name text NOT NULL UNIQUE,
    role_name   text NOT NULL UNIQUE,
    password    text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- EventRepository::emit for a plugin's transaction: the plugin's role may not touch `events`,
-- so this function (owned by the host's role) inserts the event and its pending deliveries in
-- the caller's transaction. Only plugin roles are granted EXECUTE, at provisioning.
CREATE FUNCTION docintel_plugin_emit_event(p_id uuid, p_type text, p_resource_type text,
    p_resource_id text, p_workspace_id text, p_user_id text, p_actor_id text, p_payload jsonb,
    p_trace_id text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH e AS (INSERT INTO events (id, type, resource_type, resource_id, workspace_id, user_id,
        actor_id, payload, trace_id) VALUES (p_id, p_type, p_resource_type, p_resource_id,
        NULLIF(p_workspace_id, '')::uuid, NULLIF(p_user_id, '')::uuid,
        NULLIF(p_actor_id, '')::uuid, p_payload, p_trace_id) RETURNING id)
    INSERT INTO webhook_deliveries (id, subscription_id, event_id, status)
    SELECT gen_random_uuid(), s.id, e.id, 'pending' FROM event_subscriptions s, e
    WHERE s.active AND s.webhook_url IS NOT NULL AND
    ((s.workspace_id IS NULL AND p_workspace_id = '' AND s.owner_id = NULLIF(p_user_id, '')::uuid)
     OR (s.workspace_id = NULLIF(p_workspace_id, '')::uuid AND EXISTS (SELECT 1 FROM
      workspace_members m WHERE m.workspace_id = s.workspace_id AND m.user_id = s.owner_id)))
    AND (cardinality(s.event_types) = 0 OR p_type = ANY(s.event_types))
    AND (s.resource_type IS NULL OR s.resource_type = p_resource_type)
    AND (s.resource_id IS NULL OR s.resource_id = p_resource_id);
$$;
REVOKE ALL ON FUNCTION docintel_plugin_emit_event(uuid, text, text, text, text, text, text, jsonb,
    text) FROM PUBLIC;
