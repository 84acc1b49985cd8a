"""cardref: the product that wires referee, calibration and vision together (CLI, pipeline, log, web)."""

__version__ = "0.1.0"
