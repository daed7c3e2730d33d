"""Helpers of the docs site (mkdocs.yml): a hook for links and a griffe extension for roles."""
