"""The version queryhttp reports, in Databend's format (clients parse it)."""

import sys

VERSION = "1.2.934"
VERSION_STRING = f"DatabendQuery v{VERSION}-queryhttp(python-{sys.version_info[0]}.{sys.version_info[1]}.{sys.version_info[2]})"
