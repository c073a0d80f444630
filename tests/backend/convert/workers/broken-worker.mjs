// A worker module that cannot load, as when a dependency of the real one is missing.
throw new Error('this conversion worker cannot load');
