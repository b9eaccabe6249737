# The replicas behind config/varnish/themed.vcl, which includes this file: one group of three
# replicas on 127.0.0.1:8081-8083 serving every theme (no `shard` setting). Change the addresses
# to yours; themed-backends-2-shards.vcl shows groups.

# An event stream stays open: bytes come at least every heartbeatSeconds (15 s by default).
backend replica1 { .host = "127.0.0.1"; .port = "8081"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica2 { .host = "127.0.0.1"; .port = "8082"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }
backend replica3 { .host = "127.0.0.1"; .port = "8083"; .probe = readyz; .connect_timeout = 1s; .first_byte_timeout = 30s; .between_bytes_timeout = 60s; }

sub vcl_init {
    new group1 = directors.round_robin();
    group1.add_backend(replica1);
    group1.add_backend(replica2);
    group1.add_backend(replica3);
}

sub themed_groups {
    set req.http.X-Themed-Groups = "1";
}

sub themed_backend {
    set bereq.backend = group1.backend();
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
