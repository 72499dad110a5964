void g(struct doca_comch_connection *c) { doca_comch_connection_update_info(c); }
