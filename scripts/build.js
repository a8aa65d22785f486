console.log('build: not yet');
