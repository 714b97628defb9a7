"""The bound-expression and plan-node dataclasses that binder, planner, code generator and operators exchange."""
