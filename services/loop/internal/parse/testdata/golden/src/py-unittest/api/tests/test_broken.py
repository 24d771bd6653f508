import os

if os.environ.get("CASE") == "import":
    from app.calc import multiply  # noqa: F401  (does not exist)
