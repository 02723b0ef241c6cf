// SQLite 3 (Debian's libsqlite3-dev): the fleet console's proof-of-play store.
#include <sqlite3.h>
