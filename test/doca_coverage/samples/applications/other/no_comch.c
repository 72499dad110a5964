/* Uses no Comch: its names are not read. */
void f(void) { doca_fixture_not_read(); }
