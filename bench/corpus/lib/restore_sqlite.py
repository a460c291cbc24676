"""Copy a snapshot over a live SQLite database with SQLite's online backup (safe while the app holds connections).

    python bench/corpus/lib/restore_sqlite.py SNAPSHOT LIVE
"""

import sqlite3
import sys

if len(sys.argv) != 3:
    sys.exit("usage: restore_sqlite.py SNAPSHOT LIVE")
source = sqlite3.connect(sys.argv[1])
live = sqlite3.connect(sys.argv[2], timeout=30)
source.backup(live)
live.close()
source.close()
