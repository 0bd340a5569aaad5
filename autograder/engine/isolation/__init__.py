"""The sandbox and its processes: choosing a mode, the template and its
workers, cgroups, the uid pool, the memory budget.
"""
