from pinbid_kit.migrations import run_env

from pinbid_social.models import Base

run_env(Base.metadata)
