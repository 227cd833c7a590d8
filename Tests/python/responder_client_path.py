"""Importing this puts clients/python on sys.path, so tests can import the sample client `responder_client`."""
import sys

from harness import REPO

if str(REPO / "clients" / "python") not in sys.path:
    sys.path.insert(0, str(REPO / "clients" / "python"))
