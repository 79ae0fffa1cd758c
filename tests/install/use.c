// SPDX-License-Identifier: MIT
/* A program built only from the installed cdtail.h and libcdtail. */
#include <stdio.h>
#include <cdtail.h>

int main(int argc, char **argv)
{
	struct cdt_probe_result res = CDT_INIT(res);
	struct cdt_dev *dev;
	char err[256];
	int rc;

	if (argc != 2)
		return 2;
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
