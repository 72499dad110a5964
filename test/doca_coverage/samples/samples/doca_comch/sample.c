/* doca_fixture_in_a_comment is no use of a name. */
#include <doca_dma.h>

struct doca_dev *doca_fixture_variable;

static doca_error_t
doca_fixture_own_function(struct doca_pe *pe)
{
	doca_pe_progress(pe);
	DOCA_LOG_INFO("doca_fixture_in_a_string");
	return DOCA_SUCCESS;
}
