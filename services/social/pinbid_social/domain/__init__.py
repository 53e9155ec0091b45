"""Social's pure rules: no FastAPI, no SQLAlchemy, no pydantic."""
