// libpq, PostgreSQL's client library (Debian's libpq-dev), for the cluster store.
#include <libpq-fe.h>
