// SPDX-License-Identifier: MIT
/* A program built only from the installed headers and libcdtail. */
#include <stdio.h>
#include <string.h>
#include <cdtail.h>
#include <cdtail-hazards.h>
#include <cdtail-tools.h>

int main(int argc, char **argv)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	char err[256];
	int rc;

	if (argc != 2)
		return 2;
	/* the other two headers' functions link from the installed library */
	if (strcmp(cdt_hazard_severity_name(CDT_HAZARD_DANGER), "danger") ||
	    strcmp(cdt_area_name(CDT_AREA_BAD), "bad"))
		return 4;
	rc = cdt_open(argv[1], NULL, &dev, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s\n", err);
		return 3;
	}
	rc = cdt_probe(dev, NULL, &res);
	if (!rc)
		printf("%llu %lld\n", (unsigned long long)res.true_blocks,
		       (long long)res.hidden_blocks);
	cdt_close(dev);
	return rc ? 3 : 0;
}
