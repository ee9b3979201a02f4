"""Generated from proto/referee/v1 by tools/gen_proto.py; do not edit."""
