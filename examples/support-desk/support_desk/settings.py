"""Settings shared by the service's modules."""

import os

REPLY_MODEL = "claude-sonnet-4-6"
QUEUE_URL = os.environ.get("SUPPORT_QUEUE_URL", "redis://localhost:6379/0")
