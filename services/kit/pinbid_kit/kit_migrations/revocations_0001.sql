-- The kit's token revocations as first released (the migration of each service that verifies tokens runs this step).
CREATE TABLE token_revocations (
	user_id UUID NOT NULL,
	token_version INTEGER NOT NULL,
	revoked_at TIMESTAMP WITH TIME ZONE DEFAULT now() NOT NULL,
	PRIMARY KEY (user_id)
);
