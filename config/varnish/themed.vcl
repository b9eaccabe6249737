vcl 4.1;
# Varnish in front of themed replicas (docs/DEPLOY.md). Varnish 7 with varnish-modules (xkey).
# `make cluster` runs it on 127.0.0.1:8090 behind HAProxy (config/haproxy/themed.cfg, which sends
# /events straight to the replicas) with three replicas on 127.0.0.1:8081-8083; change the backends
# to yours. Alone in front (no HAProxy) it passes /events through, at two threads a stream.

import directors;
import str;
import xkey;

# A replica takes traffic while /readyz says 200: it is not ready before its first index, while it
# drains after SIGTERM, or when its cluster store has been unreachable for too long.
probe readyz {
    .request = "GET /readyz HTTP/1.1"
               "Host: themed"
               "Connection: close";
    .expected_response = 200;
    .interval = 1s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 2;
}

# An event stream stays open: bytes come at least every heartbeatSeconds (15 s by default).
backend replica1 { .host = "127.0.0.1"; .port = "8081"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica2 { .host = "127.0.0.1"; .port = "8082"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica3 { .host = "127.0.0.1"; .port = "8083"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }

# Who may purge: the replicas (they send PURGE with `xkey-purge: theme:<name>` after a swap).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_init {
    new replicas = directors.round_robin();
    replicas.add_backend(replica1);
    replicas.add_backend(replica2);
    replicas.add_backend(replica3);
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge header required"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Invalidated " + req.http.n-gone + " objects"));
    }
    set req.backend_hint = replicas.backend();
    # Admin routes, release histories and the event stream are never cached; PUT /active and
    # release uploads (with their bodies) go to one replica, which stores them for all.
    if (req.url ~ "^/(events|active|healthz|readyz|metrics)(\?|$)" || req.url ~ "^/themes/[^/]+/releases(\?|$)"
        || (req.method != "GET" && req.method != "HEAD")) {
        return (pass);
    }
    # themed varies answers by these; everything else in a cookie or auth header is not its input.
    unset req.http.Cookie;
}

sub vcl_backend_fetch {
    set bereq.backend = replicas.backend();
    # A retry goes to the first replica this request has not failed on (X-Themed-Failed lists
    # them, each between spaces). Not the round robin: it moves on for every request, so under
    # load it hands back replicas that just failed, which the probes have not yet marked sick,
    # and two replicas restarting at once could take every retry.
    if (bereq.retries > 0) {
        if (!str.contains(bereq.http.X-Themed-Failed, " replica1 ")) {
            set bereq.backend = replica1;
        } elsif (!str.contains(bereq.http.X-Themed-Failed, " replica2 ")) {
            set bereq.backend = replica2;
        } elsif (!str.contains(bereq.http.X-Themed-Failed, " replica3 ")) {
            set bereq.backend = replica3;
        }
    }
}

sub vcl_backend_response {
    # A replica that answers 5xx (draining, stopped mid-request) is tried once more elsewhere; a
    # change (PUT /active, a release upload, a rollback) is not sent twice.
    if (beresp.status >= 500 && bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        set bereq.http.X-Themed-Failed = bereq.http.X-Themed-Failed + " " + bereq.backend + " ";
        return (retry);
    }
    if (bereq.url ~ "^/events") {
        # Server-Sent Events: every byte on to the client as it comes, never gzipped or kept.
        set beresp.do_stream = true;
        set beresp.do_gzip = false;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (bereq.url ~ "^/blobs/") {
        # A blob's URL names its bytes (SHA-256): they never change.
        set beresp.ttl = 365d;
        set beresp.grace = 1d;
        return (deliver);
    }
    # Name routes live for themed's s-maxage (a purge by xkey ends them sooner) and are served
    # stale for a while longer when no replica answers.
    set beresp.grace = 1h;
}

sub vcl_backend_error {
    # No replica answered at all (connection refused, reset): try the next one.
    if (bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        set bereq.http.X-Themed-Failed = bereq.http.X-Themed-Failed + " " + bereq.backend + " ";
        return (retry);
    }
}

sub vcl_deliver {
    # Keys and the cache's own bookkeeping are for caches, not clients.
    unset resp.http.xkey;
    unset resp.http.n-gone;
    if (obj.hits > 0) {
        set resp.http.X-Cache = "hit";
    } else {
        set resp.http.X-Cache = "miss";
    }
}
