# Replicas in two shard groups, for config/varnish/themed.vcl (copy this beside it as
# themed-backends.vcl; `make cluster SHARDS=2` does): replicas 1 and 2 run with "shard": "1/2",
# replicas 3 and 4 with "shard": "2/2". Each group holds and serves only its shard's themes (and
# their ancestors); themed.vcl sends each request to the group that owns its theme. More groups:
# more backends, a `groupN` director each, the count in themed_groups, a branch in themed_backend.

backend replica1 { .host = "127.0.0.1"; .port = "8081"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica2 { .host = "127.0.0.1"; .port = "8082"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica3 { .host = "127.0.0.1"; .port = "8083"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica4 { .host = "127.0.0.1"; .port = "8084"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }

sub vcl_init {
    new group1 = directors.round_robin();
    group1.add_backend(replica1);
    group1.add_backend(replica2);
    new group2 = directors.round_robin();
    group2.add_backend(replica3);
    group2.add_backend(replica4);
}

sub themed_groups {
    set req.http.X-Themed-Groups = "2";
}

# A replica of the request's group; on a retry after a failure, the group's first replica this
# request has not failed on (see themed-backends.vcl).
sub themed_backend {
    if (bereq.http.X-Themed-Group == "2") {
        set bereq.backend = group2.backend();
        if (bereq.retries > 0) {
            if (!str.contains(bereq.http.X-Themed-Failed, " replica3 ")) {
                set bereq.backend = replica3;
            } elsif (!str.contains(bereq.http.X-Themed-Failed, " replica4 ")) {
                set bereq.backend = replica4;
            }
        }
    } else {
        set bereq.backend = group1.backend();
        if (bereq.retries > 0) {
            if (!str.contains(bereq.http.X-Themed-Failed, " replica1 ")) {
                set bereq.backend = replica1;
            } elsif (!str.contains(bereq.http.X-Themed-Failed, " replica2 ")) {
                set bereq.backend = replica2;
            }
        }
    }
}
