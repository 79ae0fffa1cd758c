// SPDX-License-Identifier: MIT
/* The size convention of the public structs: see core/abi.h. */
#include <string.h>
#include "core/abi.h"
#include "core/device.h"

static size_t size_of(const void *s)
{
	size_t n;

	memcpy(&n, s, sizeof(n));
	return n;
}

static int bad_size(struct cdt_dev *dev, const char *what)
{
	if (dev)
		cdt_dev_seterr(dev, "%s: size is 0: initialise it with CDT_INIT()",
			       what);
	return CDT_EUSAGE;
}

int cdt_abi_opts(struct cdt_dev *dev, void *full, size_t full_size,
		 const void *opts, const char *what)
{
	size_t n;

	memset(full, 0, full_size);
	memcpy(full, &full_size, sizeof(full_size));
	if (!opts)
		return 0;
	n = size_of(opts);
	if (n < sizeof(size_t))
		return bad_size(dev, what);
	if (n > full_size)
		n = full_size;
	memcpy((char *)full + sizeof(size_t), (const char *)opts + sizeof(size_t),
	       n - sizeof(size_t));
	return 0;
}

int cdt_abi_res(struct cdt_dev *dev, const void *res, void *full,
		size_t full_size, const char *what)
{
	memset(full, 0, full_size);
	memcpy(full, &full_size, sizeof(full_size));
	if (!res) {
		if (dev)
			cdt_dev_seterr(dev, "%s: no result given", what);
		return CDT_EUSAGE;
	}
	if (size_of(res) < sizeof(size_t))
		return bad_size(dev, what);
	return 0;
}

void cdt_abi_out(void *res, const void *full, size_t full_size)
{
	size_t n;

	if (!res)
		return;
	n = size_of(res);
	if (n < sizeof(size_t))
		return;
	if (n > full_size)
		n = full_size;
	memcpy((char *)res + sizeof(size_t), (const char *)full + sizeof(size_t),
	       n - sizeof(size_t));
}

int cdt_abi_enter(struct cdt_dev *dev, const void *opts, const void *defaults,
		  void *o, size_t o_size, const void *res, void *full,
		  size_t full_size, const char *fn)
{
	int rc = cdt_abi_res(dev, res, full, full_size, fn);

	if (!rc && o)
		rc = cdt_abi_opts(dev, o, o_size, opts ? opts : defaults, fn);
	return rc;
}

bool cdt_abi_leave(void *res, const void *full, size_t full_size, size_t owned)
{
	cdt_abi_out(res, full, full_size);
	return !res || size_of(res) < owned;
}
