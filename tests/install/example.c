/* example: probe DEV, image it to OUT with a map, verify OUT */
#include <signal.h>
#include <stdio.h>
#include <cdtail.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void progress(void *ctx, const struct cdt_progress *p)
{
	(void)ctx;
	fprintf(stderr, "%s %llu/%llu\r", cdt_phase_name(p->phase),
		(unsigned long long)p->done, (unsigned long long)p->total);
}

int main(int argc, char **argv)
{
	struct cdt_probe_result pr = CDT_INIT(pr);
	struct cdt_image_opts io = CDT_INIT(io);
	struct cdt_image_result ir = CDT_INIT(ir);
	struct cdt_verify_opts vo = CDT_INIT(vo);
	struct cdt_verify_result vr = CDT_INIT(vr);
	struct cdt_dev *dev;
	char err[256];
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: example DEV OUT MAP\n");
		return 2;
	}
	printf("libcdtail %s\n", cdt_version());
	rc = cdt_open(argv[1], NULL, &dev, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return 3;
	}
	signal(SIGINT, on_signal);

	rc = cdt_probe(dev, NULL, &pr);
	if (rc)
		goto fail;
	printf("%s %s: reported %llu, true %llu blocks of %u bytes"
	       " (%s)\n",
	       pr.inq.vendor, pr.inq.product,
	       (unsigned long long)pr.reported_blocks,
	       (unsigned long long)pr.true_blocks, pr.sizes.block_size,
	       cdt_verdict_name(pr.verdict));

	io.map_path = argv[3];
	io.rd.retries = -1;
	io.rd.progress = progress;
	io.rd.stop = &stop;
	rc = cdt_image(dev, argv[2], &io, &ir);
	if (rc)
		goto fail;
	printf("imaged %llu blocks, %llu unreadable, sha256 %s\n",
	       (unsigned long long)ir.extent_blocks,
	       (unsigned long long)ir.sum.bad_blocks,
	       ir.sum.digests.sha256);
	/* the run's own probe, held by the result and freed with it */
	printf("its end search: %s, %llu blocks\n", ir.sum.probe ?
	       cdt_verdict_name(ir.sum.probe->verdict) : "none",
	       ir.sum.probe ?
	       (unsigned long long)ir.sum.probe->true_blocks : 0);

	vo.image_path = argv[2];
	vo.rd.retries = -1;
	rc = cdt_verify(dev, &vo, &vr);
	if (rc)
		goto fail;
	printf("verify: %s\n", vr.verdict == CDT_VERIFY_IDENTICAL ?
	       "identical" : "different");
	rc = vr.verdict == CDT_VERIFY_IDENTICAL && !ir.sum.bad_blocks ?
	     0 : 1;
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", cdt_strerror(rc), cdt_errmsg(dev));
	rc = 3;
out:
	cdt_image_result_free(&ir);
	cdt_verify_result_free(&vr);
	cdt_close(dev);
	return rc;
}
