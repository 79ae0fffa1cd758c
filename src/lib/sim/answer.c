// SPDX-License-Identifier: MIT
/*
 * Helpers every command handler of the emulated drive uses: sense codes
 * and handing a built answer to the initiator.
 */
#include <string.h>
#include "sim/drive.h"


/* 32-bit address fields saturate rather than wrap to a small number */
uint32_t sim_clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void sim_check(struct sim_outcome *o, uint8_t key, uint8_t asc, uint8_t ascq)
{
	o->check = true;
	o->key = key;
	o->asc = asc;
	o->ascq = ascq;
}

void sim_invalid_field(struct sim_outcome *o)
{
	sim_check(o, SK_ILLEGAL_REQUEST, ASC_INVALID_FIELD, 0);
}

/* Hand a built answer to the initiator: no more than alloc or the buffer. */
void sim_put_answer(struct cdt_cmd *cmd, const uint8_t *ans, size_t len,
		       uint32_t alloc)
{
	size_t n = len;

	if (n > alloc)
		n = alloc;
	if (n > cmd->data_len)
		n = cmd->data_len;
	if (!cmd->data)
		n = 0;
	if (n)
		memcpy(cmd->data, ans, n);
	cmd->resid = cmd->data_len - (uint32_t)n;
}

/*
 * getconf=full (tgt): the whole allocation length moves, zero-padded past
 * the answer, with no residual; only the header tells the answer's length.
 */
void sim_put_padded_answer(struct cdt_cmd *cmd, const uint8_t *ans,
			      size_t len, uint32_t alloc)
{
	uint32_t n = alloc < cmd->data_len ? alloc : cmd->data_len;

	if (!cmd->data)
		n = 0;
	if (n)
		memset(cmd->data, 0, n);
	sim_put_answer(cmd, ans, len, n);
	cmd->resid = cmd->data_len - n;
}
