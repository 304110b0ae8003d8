"""labgrid strategy for a board benchrack measures (labgrid 0.4 and later):
states off -> gdb. In "gdb" the board is powered, halted, and its
gdbserver listens at `gdbserver` (HOST:PORT), which the strategy publishes
with the board file and the server's flavour for the test to hand to
`benchrack check --board B --remote HOST:PORT --flavour F`.

Power is any PowerProtocol driver: QEMUDriver for the emulated board (it
starts QEMU halted, with its gdbstub among extra_args, and resumes it; the
strategy halts it again through QMP), or on a real place a power switch
driver while the probe's gdbserver (OpenOCD on the exporter, forwarded)
halts the core when benchrack attaches. benchrack loads the image over the
debug port when it differs (the board file's `load:`), so flashing is not
the strategy's business.
"""
import enum

import attr
from labgrid.factory import target_factory
from labgrid.step import step
from labgrid.strategy.common import Strategy, StrategyError


class Status(enum.Enum):
    unknown = 0
    off = 1
    gdb = 2


@target_factory.reg_driver
@attr.s(eq=False)
class BenchrackStrategy(Strategy):
    """off: powered off. gdb: powered and halted, gdbserver listening."""

    bindings = {"power": "PowerProtocol"}

    gdbserver = attr.ib(validator=attr.validators.instance_of(str))
    board = attr.ib(default="qemu-netduinoplus2", validator=attr.validators.instance_of(str))
    flavour = attr.ib(default="generic", validator=attr.validators.instance_of(str))
    status = attr.ib(default=Status.unknown)

    @step(args=["state"])
    def transition(self, state, *, step):  # pylint: disable=redefined-outer-name
        if not isinstance(state, Status):
            state = Status[state]
        if state == Status.unknown:
            raise StrategyError(f"cannot transition to {state}")
        if self.status == state:
            step.skip("nothing to do")
            return
        if state == Status.off:
            self.target.activate(self.power)
            self.power.off()
        elif state == Status.gdb:
            self.transition(Status.off)
            self.target.activate(self.power)
            self.power.on()
            # QEMUDriver resumes the machine after start; a board's reset
            # state is halted until benchrack takes it (a real probe's
            # gdbserver halts the core on attach)
            halt = getattr(self.power, "monitor_command", None)
            if halt is not None:
                halt("stop")
        self.status = state
