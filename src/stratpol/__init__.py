"""stratpol: general policies for classical planning, learned and certified."""

__version__ = "0.1.0"
