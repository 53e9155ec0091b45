-- One database per service (the services migrate their own schema at start-up).
CREATE DATABASE pinbid_identity;
CREATE DATABASE pinbid_marketplace;
CREATE DATABASE pinbid_payments;
CREATE DATABASE pinbid_social;
CREATE DATABASE pinbid_content;
