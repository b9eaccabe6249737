vcl 4.1;
# Varnish in front of themed replicas (docs/DEPLOY.md). Varnish 7 with varnish-modules (xkey).
# `make cluster` runs it on 127.0.0.1:8090 behind HAProxy (config/haproxy/themed.cfg, which sends
# /events straight to the replicas) with three replicas on 127.0.0.1:8081-8083. Alone in front
# (no HAProxy) it passes /events through, at two threads a stream.
#
# This file is the logic; the replicas are in themed-backends.vcl beside it (yours to write: the
# one here is one group of three). Replicas started with a `shard` setting ("N/COUNT") form a
# group per shard, and each request goes to the group whose shard owns the theme in its path, by
# the rule the replicas use (docs/DEPLOY.md "Shards"); themed-backends-2-shards.vcl is an
# example that `make cluster SHARDS=2` runs.

import directors;
import std;
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

# The replicas, their groups (one director per shard, `group1`...), `sub themed_groups` (how many
# groups) and `sub themed_backend` (a replica of bereq's group, another one on a retry).
include "./themed-backends.vcl";

# Who may purge: the replicas (they send PURGE with `xkey-purge: theme:<name>` after a swap).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_init {
    # Only for its key(): SHA-256 of a string, the number the replicas' shard rule uses.
    new keys = directors.shard();
}

# The group whose shard owns the request's theme: the theme segment of /themes/{theme}/..., or
# the `theme` parameter of /events. Rendezvous hashing as the replicas do it: each shard N scores
# the theme by key("N:theme"), the highest wins, a tie goes to the lower N. Unrolled for up to
# eight groups. Without a theme (or for `current`, the active theme), group 1: a replica that does
# not serve the theme answers 421 with the owner in Themed-Shard, and vcl_backend_response
# retries there.
sub themed_route {
    call themed_groups;
    set req.http.X-Themed-Group = "1";
    if (req.url ~ "^/themes/[^/?]+") {
        # A generation-pinned theme (`brand@43`) goes where its theme goes.
        set req.http.X-Themed-Theme = regsub(req.url, "^/themes/([^/?@]+).*$", "\1");
    } elsif (req.url ~ "^/events\?(.*&)?theme=[^&]+") {
        set req.http.X-Themed-Theme = regsub(req.url, "^/events\?(.*&)?theme=([^&]+).*$", "\2");
    } else {
        return;
    }
    set req.http.X-Themed-Score = keys.key("1:" + req.http.X-Themed-Theme);
    if (std.integer(req.http.X-Themed-Groups, 1) >= 2 && keys.key("2:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "2";
        set req.http.X-Themed-Score = keys.key("2:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 3 && keys.key("3:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "3";
        set req.http.X-Themed-Score = keys.key("3:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 4 && keys.key("4:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "4";
        set req.http.X-Themed-Score = keys.key("4:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 5 && keys.key("5:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "5";
        set req.http.X-Themed-Score = keys.key("5:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 6 && keys.key("6:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "6";
        set req.http.X-Themed-Score = keys.key("6:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 7 && keys.key("7:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "7";
        set req.http.X-Themed-Score = keys.key("7:" + req.http.X-Themed-Theme);
    }
    if (std.integer(req.http.X-Themed-Groups, 1) >= 8 && keys.key("8:" + req.http.X-Themed-Theme) > std.integer(req.http.X-Themed-Score, 0)) {
        set req.http.X-Themed-Group = "8";
    }
    unset req.http.X-Themed-Score;
    unset req.http.X-Themed-Theme;
}

sub vcl_recv {
    # Varnish itself appends client.ip to X-Forwarded-For before this runs, so a replica whose
    # trustedProxies lists this host (and HAProxy's, in front) counts the real client.
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
    # What a client sends in these is not its to say.
    unset req.http.X-Themed-Group;
    unset req.http.X-Themed-Failed;
    call themed_route;
    # Admin routes, release histories, assignments and the event stream are never cached; PUT /active and
    # release uploads (with their bodies) go to one replica, which stores them for all.
    # A client's assignment is its own, and aliases, rollouts and the audit trail are changed often.
    if (req.url ~ "^/(events|active|healthz|readyz|metrics|aliases|rollouts|audit)(\?|/|$)" || req.url ~ "^/assign/"
        || req.url ~ "^/themes/[^/]+/(releases|rollout)(\?|$)"
        || (req.method != "GET" && req.method != "HEAD")) {
        # A switch names its theme in the body: it goes to group 1, and on a 421 to the group
        # named, which needs the body again (uploads are not kept: they can be large, and the
        # release routes answer on every group).
        if (req.method == "PUT" && req.url ~ "^/active(\?|$)") {
            std.cache_req_body(64KB);
        }
        return (pass);
    }
    # themed varies answers by these; everything else in a cookie or auth header is not its input.
    unset req.http.Cookie;
}

sub vcl_backend_fetch {
    call themed_backend;
}

sub vcl_backend_response {
    # The replica's shard does not serve this theme: ask the group of the shard it names (a
    # request without a theme in its path, or a VCL whose groups disagree with the replicas').
    if (beresp.status == 421 && beresp.http.Themed-Shard ~ "^[0-9]+/[0-9]+$" && bereq.retries < 3) {
        set bereq.http.X-Themed-Group = regsub(beresp.http.Themed-Shard, "/.*$", "");
        return (retry);
    }
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
    # No replica answered at all (connection refused, reset: one that stopped before the health
    # check noticed): try the next one. PUT too (PUT /active, idempotent: asking for the same
    # active theme twice leaves it as once), so a switch made during a deploy is not lost; a
    # release upload (POST) is never sent twice.
    if (bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD" || bereq.method == "PUT")) {
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
